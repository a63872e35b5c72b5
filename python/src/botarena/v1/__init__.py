"""Generated protobuf and gRPC stubs of ``botarena.v1`` (``make generate``).

``env_pb2``, ``env_pb2.pyi`` and ``env_pb2_grpc`` are generated from
rpc/proto/botarena/v1/env.proto, ``match_pb2``, ``match_pb2.pyi`` and
``match_pb2_grpc`` from rpc/proto/botarena/v1/match.proto; do not edit them
by hand.
"""
