"""OpenSpiel's Kuhn and Leduc poker as goldspiel engines (Cython modules)."""
