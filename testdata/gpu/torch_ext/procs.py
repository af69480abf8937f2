"""Every way a Python program starts processes that use CUDA: a child run
with exec (subprocess), a multiprocessing worker started with spawn and one
with fork (which ends with os._exit, skipping atexit), and a child forked by
os.fork before the parent initialized CUDA. Each must leave its
observations; the launcher's trace counts the processes (the parent, the
exec'd child, two multiprocessing workers, the os.fork child: 5)."""
import multiprocessing as mp
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def work(iterations):
    sys.path.insert(0, HERE)
    import run
    run.main(iterations)


def main():
    # Before the parent touches CUDA: a forked child may still use it.
    pid = os.fork()
    if pid == 0:
        work(2)
        sys.stdout.flush()
        os._exit(0)
    os.waitpid(pid, 0)
    forked = mp.get_context("fork").Process(target=work, args=(2,))
    forked.start()
    forked.join()
    subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "2"], check=True)
    spawned = mp.get_context("spawn").Process(target=work, args=(2,))
    spawned.start()
    spawned.join()
    work(2)  # the parent last: after it, forking would leave children without CUDA
    print("exit codes", forked.exitcode, spawned.exitcode)


if __name__ == "__main__":
    main()
