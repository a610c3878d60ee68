from ._kern import fill  # noqa: F401
