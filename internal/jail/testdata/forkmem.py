# Forks 8 children that each take and touch argv[1] bytes of memory, waits
# until every child holds its memory or has died, then releases them and
# prints how many still held it at the end ("held N"). Under a memory limit
# per run at most one can; under a limit per process all 8 do.
import os, select, sys

size = int(sys.argv[1])
report_r, report_w = os.pipe()
release_r, release_w = os.pipe()
kids = []
for _ in range(8):
    pid = os.fork()
    if pid == 0:
        os.close(report_r)
        os.close(release_w)
        try:
            block = bytearray(b"\x01") * size  # every page written
        except MemoryError:
            os._exit(3)
        os.write(report_w, b"%d\n" % os.getpid())
        os.read(release_r, 1)  # returns when the parent closes release_w
        os._exit(0 if block[-1] == 1 else 4)
    kids.append(pid)
os.close(report_w)
os.close(release_r)

reported, dead, buf = set(), {}, b""
while not all(pid in reported or pid in dead for pid in kids):
    ready, _, _ = select.select([report_r], [], [], 0.1)
    if ready:
        buf += os.read(report_r, 4096)
        *lines, buf = buf.split(b"\n")
        reported.update(int(l) for l in lines)
    for pid in kids:
        if pid not in dead:
            got, status = os.waitpid(pid, os.WNOHANG)
            if got:
                dead[pid] = status
os.close(release_w)
held = 0
for pid in kids:
    status = dead.get(pid)
    if status is None:
        _, status = os.waitpid(pid, 0)
        held += os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
print("held", held, flush=True)
