"""Strategy studies built on the simulator and the statistics toolkit."""
