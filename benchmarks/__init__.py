"""Side-by-side speed measurements against named baselines (ratios, not absolute seconds)."""
