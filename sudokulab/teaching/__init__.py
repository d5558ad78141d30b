"""Views for teaching: the same rule in every engine side by side (sidebyside) and the
inference ladder, what each level of propagation infers on the same puzzles (ladder)."""
