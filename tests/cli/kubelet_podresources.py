"""A stand-in kubelet for tests/cli/test_exporter_kubernetes.sh: serves the
PodResources v1 List call over gRPC (grpcio) on a unix socket, with the
messages of cli/podresources_v1.proto (Python generated from it at start
with grpcio-tools).

    kubelet_podresources.py SOCKET STATE_DIR

STATE_DIR/answer.json is read at every call: a list of pods, each
{"name", "namespace", "containers": [{"name", "devices":
[{"resource_name", "device_ids": [...]}]}]}. STATE_DIR/sleep (a number of
seconds, if present) is slept before answering. Every call appends a line
to STATE_DIR/calls. Prints "ready" once serving; stops on SIGTERM.
"""
import importlib
import json
import os
import signal
import sys
import tempfile
import threading
import time
from concurrent import futures

import grpc
from grpc_tools import protoc

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.join(HERE, "..", "..", "cli")


def load_messages():
    out = tempfile.mkdtemp(prefix="gw-pb2-")
    rc = protoc.main(["protoc", "-I" + PROTO_DIR, "--python_out=" + out,
                      os.path.join(PROTO_DIR, "podresources_v1.proto")])
    if rc != 0:
        sys.exit("protoc failed")
    sys.path.insert(0, out)
    return importlib.import_module("podresources_v1_pb2")


def main():
    sock, state = sys.argv[1], sys.argv[2]
    pb = load_messages()

    def list_pods(request, context):
        with open(os.path.join(state, "calls"), "a") as f:
            f.write("List\n")
        try:
            with open(os.path.join(state, "sleep")) as f:
                time.sleep(float(f.read().strip() or 0))
        except FileNotFoundError:
            pass
        with open(os.path.join(state, "answer.json")) as f:
            pods = json.load(f)
        resp = pb.ListPodResourcesResponse()
        for p in pods:
            pr = resp.pod_resources.add(name=p["name"], namespace=p["namespace"])
            for c in p["containers"]:
                cr = pr.containers.add(name=c["name"], cpu_ids=[0, 1])
                for d in c["devices"]:
                    cd = cr.devices.add(resource_name=d["resource_name"], device_ids=d["device_ids"])
                    cd.topology.nodes.add(ID=0)
        return resp

    handler = grpc.method_handlers_generic_handler("v1.PodResourcesLister", {
        "List": grpc.unary_unary_rpc_method_handler(
            list_pods,
            request_deserializer=pb.ListPodResourcesRequest.FromString,
            response_serializer=pb.ListPodResourcesResponse.SerializeToString),
    })
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    if server.add_insecure_port("unix:" + sock) == 0:
        sys.exit("cannot listen on " + sock)
    server.start()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    print("ready", flush=True)
    while not done.wait(0.5):
        pass
    server.stop(0)
    os._exit(0)  # not waiting for a handler that sleeps


if __name__ == "__main__":
    main()
