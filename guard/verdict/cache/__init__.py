"""What a long-lived process keeps between the lines it judges: the line's surroundings, the
projections, where paths lead, and the looks at the machine each was built from."""
