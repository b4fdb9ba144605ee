import collections
build_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/gcc'), ('is_cuda_build', False), ('is_rocm_build', False), ('is_tensorrt_build', False)])
