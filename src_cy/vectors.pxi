# std::vector -> new NumPy array copies, shared by mccfr.pyx and tree_compile.pyx
# (included; the including module cimports vector and imports numpy as np).

cdef object _ivec(vector[int]& v):
    out = np.empty(v.size(), np.int32)
    cdef int[::1] o = out
    cdef Py_ssize_t i
    for i in range(<Py_ssize_t>v.size()):
        o[i] = v[i]
    return out


cdef object _dvec(vector[double]& v):
    out = np.empty(v.size(), np.float64)
    cdef double[::1] o = out
    cdef Py_ssize_t i
    for i in range(<Py_ssize_t>v.size()):
        o[i] = v[i]
    return out
