"""Training: the RL loop over search trees, per-agent learners, checkpoints and evaluation."""
