"""Training callbacks: gensim's ``CallbackAny2Vec`` hooks and wordvec's plain functions.

A callback is either

* an object with any of gensim's hooks ``on_train_begin(model)``,
  ``on_epoch_begin(model)``, ``on_epoch_end(model)``, ``on_train_end(model)`` -- code
  written for ``gensim.models.callbacks.CallbackAny2Vec`` runs unchanged (subclass
  :class:`CallbackAny2Vec` here, gensim's, or none at all); or
* a plain callable ``f(model, epoch_info)``, wordvec's own, called after every epoch with
  the epoch's ``history`` entry.

gensim's ``on_batch_begin`` / ``on_batch_end`` are kept on the base class for
signature compatibility; gensim 4's ``Word2Vec`` never calls them, and neither does wordvec.
"""

from wordvec.errors import WordvecError

HOOKS = ("on_train_begin", "on_epoch_begin", "on_epoch_end", "on_train_end")


class CallbackAny2Vec:
    """Base class of gensim-style callbacks (gensim 4.4's, hook for hook); every hook is a no-op."""

    def on_epoch_begin(self, model):
        """Called at the start of each epoch."""

    def on_epoch_end(self, model):
        """Called at the end of each epoch (``model.get_latest_training_loss()`` is this
        train call's running sum so far)."""

    def on_batch_begin(self, model):
        """Kept for gensim's signature; not called."""

    def on_batch_end(self, model):
        """Kept for gensim's signature; not called."""

    def on_train_begin(self, model):
        """Called at the start of each ``train`` call."""

    def on_train_end(self, model):
        """Called at the end of each ``train`` call."""


def _has_hooks(callback):
    return any(callable(getattr(callback, hook, None)) for hook in HOOKS)


class Callbacks:
    """The callbacks of one ``train`` call, each called at the points it asks for."""

    def __init__(self, callbacks):
        self.callbacks = tuple(callbacks or ())
        for callback in self.callbacks:
            if not _has_hooks(callback) and not callable(callback):
                raise WordvecError(f"a callback must have gensim's hooks (on_epoch_end, ...) or be a function "
                                f"f(model, epoch_info), not {type(callback).__name__}")

    def _hook(self, name, model):
        for callback in self.callbacks:
            hook = getattr(callback, name, None)
            if callable(hook):
                hook(model)

    def train_begin(self, model):
        self._hook("on_train_begin", model)

    def epoch_begin(self, model):
        self._hook("on_epoch_begin", model)

    def epoch_end(self, model, info):
        for callback in self.callbacks:
            if _has_hooks(callback):
                hook = getattr(callback, "on_epoch_end", None)
                if callable(hook):
                    hook(model)
            else:
                callback(model, info)

    def train_end(self, model):
        self._hook("on_train_end", model)
