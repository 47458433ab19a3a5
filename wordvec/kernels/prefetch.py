"""A cache hint for the compiled loops: ``prefetch_row(W, row, D)`` asks for row ``row``
of a float32 matrix before it is read.

Paragraph-vector examples read rows scattered over matrices far larger than a core's
caches (the target's and the negatives' output rows, PV-DM's context rows), one example
after another, and each example depends on the last (the document's row changes), so
the core waits for every miss in turn.  The rows of the *next* position are known one
position ahead (its random numbers are drawn in the same order, just earlier): asking
for them then overlaps their misses with the current example's arithmetic.  A prefetch
never faults and changes no value, only when a cache line arrives.
"""

import numba
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

LINE_FLOATS = 16  # float32s in a 64-byte cache line

__all__ = ["prefetch_row"]


@intrinsic
def prefetch_float(typingctx, W, row, column):
    """``llvm.prefetch`` (read, keep in all cache levels) of the line holding W[row, column]."""
    def codegen(context, builder, signature, args):
        matrix = signature.args[0]
        array = context.make_array(matrix)(context, builder, args[0])
        row_index = context.cast(builder, args[1], signature.args[1], types.intp)
        column_index = context.cast(builder, args[2], signature.args[2], types.intp)
        pointer = cgutils.get_item_pointer(context, builder, matrix, array, [row_index, column_index],
                                           wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        hint = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32]),
            _intrinsic_name())
        builder.call(hint, [builder.bitcast(pointer, byte_pointer), int32(0), int32(3), int32(1)])
        return context.get_dummy_value()

    return types.void(W, row, column), codegen


def _intrinsic_name():
    """The intrinsic's name is mangled by its pointer type: ``p0`` for LLVM >= 16's opaque
    pointers (llvmlite >= 0.45), ``p0i8`` for the typed ``i8*`` of LLVM 14-15 (llvmlite
    0.42-0.44, which Numba >= 0.59 still allows)."""
    return "llvm.prefetch.p0" if llvm_version_info[0] >= 16 else "llvm.prefetch.p0i8"


@numba.njit(nogil=True, cache=True, inline="always")
def prefetch_row(W, row, D):
    """Every cache line of W[row, :D] (a row need not start on a line)."""
    for column in range(0, D, LINE_FLOATS):
        prefetch_float(W, row, column)
    prefetch_float(W, row, D - 1)
