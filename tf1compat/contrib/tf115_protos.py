"""TF 1.15's generated `*_pb2.py` files, loaded on today's protobuf.

TF 1.15's contrib ships the Python that protoc 3.8 generated for its own `.proto` files
(`session_bundle/manifest_pb2.py`, which contrib.learn's export reads; `tfprof`'s and the
tensor_forest's protos). That code builds each descriptor by hand, which protobuf 4 and later
refuse ("Descriptors cannot be created directly"). Each such file also holds the whole
`.proto` as its serialized FileDescriptorProto: loaded the way protoc generates modules today
(the descriptor pool reads the serialized file; protobuf's builder makes the message and enum
classes of the module), the module has the same messages, fields and enums, made by today's
protobuf, and its dependencies (TensorFlow's own protos) are TF 2.21's.
"""

from __future__ import annotations

import ast
import types
from typing import Optional


class NotGeneratedCode(ImportError):
    """A `_pb2.py` file that holds no serialized file descriptor."""


def exec_generated(module: types.ModuleType, path: str, source: str) -> None:
    """Fills `module` as TF 1.15's generated file at `path` (its `source`) would have, on
    today's protobuf: its imports run through the module's own `__import__` (its
    dependencies' descriptors join the pool), then its descriptor is added and built."""
    from google.protobuf import descriptor_pool
    from google.protobuf.internal import builder

    tree = ast.parse(source, path)
    serialized = _serialized_descriptor(tree)
    if serialized is None:
        raise NotGeneratedCode(f"{path} holds no serialized_pb: not protoc's output")
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    exec(compile(ast.Module(body=imports, type_ignores=[]), path, "exec"),  # noqa: S102
         module.__dict__)
    pool = descriptor_pool.Default()
    try:
        descriptor = pool.AddSerializedFile(serialized)
    except (TypeError, ValueError):  # the same file already there (imported before)
        from google.protobuf import descriptor_pb2

        proto = descriptor_pb2.FileDescriptorProto.FromString(serialized)
        descriptor = pool.FindFileByName(proto.name)
    module.DESCRIPTOR = descriptor
    builder.BuildMessageAndEnumDescriptors(descriptor, module.__dict__)
    builder.BuildTopDescriptorsAndMessages(descriptor, module.__name__, module.__dict__)


def _serialized_descriptor(tree: ast.Module) -> Optional[bytes]:
    """The bytes of `FileDescriptor(serialized_pb=...)`: a bytes literal, or (protoc 3.x for
    both Pythons) `_b('...')` of a str that latin-1 encodes."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg != "serialized_pb":
                continue
            value = keyword.value
            if isinstance(value, ast.Call) and len(value.args) == 1:
                value = value.args[0]
            if isinstance(value, ast.Constant) and isinstance(value.value, bytes):
                return value.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value.encode("latin1")
    return None
