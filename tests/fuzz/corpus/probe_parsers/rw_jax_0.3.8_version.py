__version__ = "0.3.8"
__version_info__ = _version_as_tuple(__version__)
_minimum_jaxlib_version = "0.3.7"
