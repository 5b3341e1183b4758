"""`python -m referee.serve`: what `make run` and `make run-https` start (see referee.serve)."""

from referee.serve import main

main()
