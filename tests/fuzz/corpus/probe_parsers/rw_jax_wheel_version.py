_version: str = "0.4.31"
_release_version: str = '0.4.31.dev20240701'
__version__ = _get_version_string()
