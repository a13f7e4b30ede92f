"""The process toolkit of the tools that start processes: `run`, `launch` (local and Slurm)
and the real-program corpus.

One module per mechanism, each written once:

- `lifetime`: children never outlive their parent (`die_with_parent`, `Reaper`, `end_as`);
- `groups`: signalling a process group, and stopping processes politely then for good;
- `handlers`: signal handlers installed for a block and given back after it;
- `lines`: forwarding a child's output line by line, prefixed, under one lock;
- `exits`: an exit code in words and as a shell's status;
- `ports`: whether something on this machine already listens on host:port;
- `atomic`: files written whole or not at all;
- `events`: the JSON lines a Slurm task reports to its launcher on.

Only the standard library is imported here: every tool may use it, and it uses no tool.
"""
