__version__ = '2.1.2'
debug = False
cuda: Optional[str] = '12.0'
git_version = 'Unknown'
hip: Optional[str] = None
