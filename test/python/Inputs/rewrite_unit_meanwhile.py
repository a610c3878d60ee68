"""Runs cuda-tidy on a .py file while another process keeps rewriting that
file's unit on disk with different text, as a run of another version on the
same file would. Usage: rewrite_unit_meanwhile.py CUDA_TIDY FILE.py ARGS..."""
import hashlib
import os
import subprocess
import sys
import tempfile
import threading

tidy, py = sys.argv[1], os.path.abspath(sys.argv[2])
# The unit's path (driver/PythonInput.cpp, unitPathFor).
folder = os.path.join(tempfile.gettempdir(), "cuda-tidy-python-%d" % os.getuid(),
                      hashlib.sha256(py.encode()).hexdigest()[:16])
unit = os.path.join(folder, os.path.basename(py) + ".cu")
other = "// a unit another version wrote\n" + "int unrelated_%d;\n" * 400
stop = threading.Event()


def rewrite():
    os.makedirs(folder, exist_ok=True)
    i = 0
    while not stop.is_set():
        tmp = "%s.other-%d" % (unit, i % 2)
        with open(tmp, "w") as f:
            f.write(other % tuple(range(400)))
        os.replace(tmp, unit)
        i += 1


t = threading.Thread(target=rewrite)
t.start()
try:
    r = subprocess.run([tidy] + sys.argv[3:] + [py], capture_output=True, text=True)
finally:
    stop.set()
    t.join()
sys.stdout.write(r.stdout)
sys.stdout.write(r.stderr)
print("exit=%d" % r.returncode)
