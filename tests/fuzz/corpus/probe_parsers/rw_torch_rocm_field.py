__version__ = '2.13.0+rocm10.0.0'
cuda: Optional[str] = None
hip: Optional[str] = '7.15.26333'
rocm: Optional[str] = '10.0.0'
xpu: Optional[str] = None
