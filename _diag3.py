exec(open("_diag2.py").read().split("lo, hi = 0")[0])
d = int(sys.argv[5])
b = hs[d - 1].information_state_string(p).split("\n")
print("\n".join(f"{i} {l}" for i, l in enumerate(b) if i > 60))
