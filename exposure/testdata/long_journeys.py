# Hand-written long sessions (coding-agent style), expanded to JSONL.
# Each journey is written as a sequence: "r:<request>" routes, "<tool>" calls,
# "<tool>!" a failed call, "<tool>@k=v" a call with one string argument.
import json, sys
def expand(spec):
    steps = []
    for tok in spec.split("|"):
        tok = tok.strip()
        if not tok: continue
        if tok.startswith("r:"):
            steps.append({"route": tok[2:].strip()}); continue
        st = {}
        if "@" in tok:
            tok, arg = tok.split("@", 1)
            k, v = arg.split("=", 1)
            st["args"] = {k: v}
        if tok.endswith("!"):
            tok = tok[:-1]; st["fail"] = True
        st = {"call": tok, **st}
        steps.append(st)
    return steps
def emit(path, js):
    with open(path, "w") as f:
        for id, spec in js:
            f.write(json.dumps({"id": id, "steps": expand(spec)}, ensure_ascii=False) + "\n")
F="file|"; S="shell|"; Q="search|"
long = [
 ("L01", "r:fix the failing unit tests in the parser package|" + F*3 + S + F + S + "shell!|" + F*2 + S + Q + "web_fetch|" + F*3 + S*2 + F + S),
 ("L02", "file|shell|file|file|search|file|shell|shell|file|file|shell|file|file|shell|shell!|shell|file|file|shell|file|file|shell"),
 ("L03", "r:给这个 Go 项目加一个 --verbose 参数，跑测试，然后写个变更说明|" + F*4 + S + F*2 + S*2 + F + "coding_assistant|" + F*2 + S + F + S + "ai_writer|" + F + S + F),
 ("L04", "r:profile the slow endpoint and chart the latency percentiles|" + F*2 + S*3 + F + S + "python_runner|python_runner|data_processor|data_visualization|" + F + S + F*2 + S + F + S*2),
 ("L05", F*3 + S*2 + Q + "web_fetch|web_fetch|" + F*3 + S + F*2 + S*2 + F + S + F*2 + S + F + "r:把改动总结成一份 word 周报发给组长|doc_generator|email"),
 ("L06", "r:migrate the orders table to add a status column and backfill it|db_query|" + F*2 + S + "db_query|db_query!|" + F + S*2 + "db_query|" + F*3 + S + F + S + "db_query|" + F*2 + S),
 ("L07", S*3 + "system|" + S*2 + F*2 + S + "system|" + S*3 + F + S*2 + F*2 + S*2 + "system|" + S + F + S*2),
 ("L08", "r:读一下 README 和源码，写一份架构说明，再画个模块关系的脑图|" + F*8 + Q + F*3 + "ai_writer|" + F + "mind_map|mind_map|" + F*2 + "format_converter|" + F),
 ("L09", F*2 + S + F*3 + S + F*2 + S + "r:the build fails on CI with a linker error, find out why|" + Q + "web_fetch|" + F*2 + S*2 + F + S + F*2 + S + "browser|browser|" + F + S + F*2 + S*2 + F + S*2 + F*2 + S + F + S + F*2 + S),
 ("L10", "r:scrape the changelog pages of our three dependencies and summarise breaking changes|browser|browser|browser_use|web_fetch|web_fetch|web_fetch|" + F*2 + S + F*3 + S + F*2 + "ai_writer|" + F + S + F*2 + S + F),
 ("L11", F*4 + S + F*3 + S*2 + F*2 + "python_runner|python_runner|" + F*3 + S + F*2 + S + F*4 + S + F*2 + S + F*3 + S*2 + F*2 + S + F*3 + S + F*2 + S + F + S + F*2 + S),
 ("L12", "r:把测试覆盖率报告导出成 pdf，附上覆盖率按包的柱状图|" + S*2 + F*2 + "data_processor|data_visualization|data_visualization!|data_visualization|" + F*2 + S + F + "pdf_tool|" + F + S + F*2 + S + F*3 + S + F + "r:再把结果发到团队群里|notify|" + F),
 ("L14", "r:port the CLI from Python to Go, keep the same flags and tests|" + F*6 + S + F*4 + S*2 + "coding_assistant|" + F*3 + S + F*2 + S + "shell!|" + F*3 + S*2 + F*2 + S + Q + "web_fetch|" + F*4 + S + F*3 + S + F*2 + S*2 + F*2 + S + F + "python_runner|" + F + S),
 ("L13", F*2 + S + Q + Q + "web_fetch|" + F*3 + S + F + "r:write a migration guide for the new API as markdown and convert it to html|" + F*3 + "ai_writer|" + F*2 + "format_converter|" + F + S + F*2 + S + F*2 + S + F),
]
held = [
 ("H01", "r:重构这个模块的错误处理，保证测试都通过|" + F*5 + S + F*3 + S + "shell!|shell!|" + F*2 + S*2 + F*3 + S + F*2 + S + F + S),
 ("H02", F*3 + S + F*2 + S*2 + Q + "web_fetch|" + F*4 + S + F*3 + S + F*2 + "r:generate a release notes pdf from the git log|" + S + F + "ai_writer|format_converter|pdf_tool|" + F),
 ("H03", "r:analyse the access logs for the last week and plot requests per hour|" + S*2 + F*2 + "data_processor|data_processor|python_runner|data_visualization|" + F + S + F*3 + S*2 + F*2 + S + "data_visualization|" + F*2 + S + F),
 ("H04", S*2 + F*3 + S + F*4 + S*2 + F*3 + "r:查一下这个报错在网上有没有人遇到过|" + Q + "web_fetch|web_fetch|browser|" + F*2 + S + F*3 + S*2 + F*2 + S + F*2 + S*2 + F + S + F*3 + S + F*2 + S),
]
emit(sys.argv[1], long); emit(sys.argv[2], held)
for id, spec in long + held:
    print(id, len(expand(spec)))
