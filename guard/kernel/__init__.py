"""What the kernel holds a line to: Landlock rulesets built from a verdict, and applied."""
