"""What the benchmarks' figures are made of: a percentile of samples and whether it is under its target."""


def pct(values, p, digits: int = 2):
    """The p-th quantile (0..1) of the samples, rounded; None when nothing was measured."""
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))], digits) if values else None


def below(value, limit) -> bool:
    """Whether a percentile is under its target: nothing measured (None) is not; a p50 of 0.0 is under any."""
    return value is not None and value < limit
