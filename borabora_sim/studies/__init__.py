"""Strategy studies built on the simulator and the statistics toolkit."""


__all__: list[str] = []
