"""What an approval covers: the scopes a human may pick when a request asks (arity)."""
