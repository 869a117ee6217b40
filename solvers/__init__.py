"""goldspiel solvers: search, equilibrium solvers, bots and evaluation."""
