"""The ``/quiz`` machinery every feature's subcommands share: the grammar they are declared
in, the registry that collects them, the runner that calls their handlers, and help."""
