# Exercises the Python extension under Valgrind (tests/valgrind/run.sh).
import gpuwise
for _ in range(3):
    gpuwise.is_available(); gpuwise.device_count()
    for d in gpuwise.devices():
        d.to_dict(); d.processes()
    gpuwise.explain("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB")
    r = gpuwise.doctor(); str(r); r.to_dict()
with gpuwise.monitor(interval=0.01) as m:
    pass
m.summary()
