"""One place that writes a benchmark's section of docs/benchmarks.md.

Each bench/ script owns the text between <!-- NAME:begin --> and
<!-- NAME:end -->; a section not there yet is appended under its heading
and intro, and the file is created when missing."""
import os

HEADER = "# Benchmarks\n\nNumbers measured by the scripts in `bench/`; each section is rewritten by its script.\n"


def write_section(repo, name, heading, intro, section):
    doc = os.path.join(repo, "docs", "benchmarks.md")
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    text = open(doc, encoding="utf-8").read() if os.path.exists(doc) else HEADER
    if begin not in text:
        text = text.rstrip("\n") + "\n\n## " + heading + "\n\n" + (intro + "\n\n" if intro else "") + \
            begin + "\n" + end + "\n"
    pre, rest = text.split(begin, 1)
    post = rest.split(end, 1)[1] if end in rest else "\n"
    with open(doc, "w", encoding="utf-8") as f:
        f.write(pre + begin + "\n" + section + "\n" + end + post)
    return doc


def cpu_model():
    """The CPU's model name from /proc/cpuinfo, "?" where it cannot be read."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"
