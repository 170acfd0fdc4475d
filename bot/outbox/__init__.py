"""The outbox: every platform side effect as a stored action, retried until done, and the
retention that prunes what is done."""
