# This file is included from Bazel rules.
_version: str = "0.4.30"
_release_version: str | None = None
