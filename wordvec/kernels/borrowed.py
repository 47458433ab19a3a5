"""Arrays without reference counting, for the compiled loops: ``borrowed(A)`` is A (the
same memory, shape and strides) with no memory-block pointer, so Numba's reference
counting of it does nothing.

Numba counts references to an array's memory block with atomic increments and
decrements, and a function inlined into a loop (``inline="always"``) takes and drops a
reference to each array it is given, every time round: the paragraph-vector example
loop did 22 atomic operations an example, a third of inference's time, and with two
threads the shared matrices' counters (one cache line each) travelled between the cores.
Inside a kernel, the arrays its caller passed in (and keeps alive for the call) are used
through borrowed copies; NRT_incref and NRT_decref skip a null block.  A borrowed array
must not outlive the call nor be returned or stored.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["borrowed"]


@intrinsic
def borrowed(typingctx, array):
    """``array`` without its memory block (see the module docstring)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        return view._getvalue()

    return array(array), codegen
