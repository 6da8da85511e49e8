"""mars2: multi-agent tree search and reinforcement learning for code generation (MARS²)."""

__version__ = "0.1.0"
