__version__ = '2.3.0+cpu'
debug = False
cuda = None
hip = None
