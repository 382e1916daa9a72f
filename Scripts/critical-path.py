#!/usr/bin/env python3
"""The clean build's critical path, and its time on more cores than this machine has.

Reads a job log that Scripts/compiler-job-log.sh wrote during a clean debug build run with
`swift build -j 1` (so that every job ran alone, on a quiet core), and the modules' dependencies
(`Module:Dependency,Dependency` arguments; `link File:Module` is the link of a file, which waits
for every module it depends on, directly or not, to be compiled).

The model, which the 2-core estimate checks against the build timed on this machine:
- SwiftPM builds a build plugin's tool and compiles the plugins before it plans the rest of the
  build, so the jobs that start before the last plugin's compile ends (in `.build/plugins`) all
  end before any other job starts: the build is two stages, one after the other, plus the time
  no compile or link covers (SwiftPM's planning, the plugin's run, the driver's small jobs),
  which is taken as measured.
- A module's `emit-module` job waits for its dependencies' `emit-module` jobs; so does its
  compile, which on N cores the driver splits into N batches (more when a batch would have over
  25 files, fewer when the module has fewer files than cores). Each batch repeats
  the work of reading the module's declarations, taken to cost what its `emit-module` job
  costs; the rest of the compile is shared out.
- Jobs start on the first free core, the one with the longest chain after it first.
"""
import heapq
import os
import sys
from collections import defaultdict


def read_log(path):
    """The jobs: start and end (ns), kind, module (or linked file), primary files, directory."""
    jobs = []
    with open(path) as log:
        for line in log:
            tool, start, end, *words = line.split()

            def value(option):
                return words[words.index(option) + 1] if option in words[:-1] else ""

            primary = words.count("-primary-file") + int(value("-primary-filelist") or 0)
            if tool == "clang":
                kind = "c-compile" if "-c" in words else "link"
                module, directory = os.path.basename(value("-o")), os.path.dirname(value("-o"))
            elif "-c" in words:
                kind, module = "compile", value("-module-name")
                objects = [word for word in words if word.endswith(".o")]
                directory = os.path.dirname(objects[0]) if objects else ""
            elif "-emit-module" in words:
                kind, module = "emit-module", value("-module-name")
                directory = os.path.dirname(value("-emit-module-path") or value("-o"))
            else:
                kind, module, directory = "other", value("-module-name"), ""
            jobs.append((int(start) * 1000, int(end) * 1000, kind, module or "-", primary, directory))
    return sorted(jobs)


def tool_stage_end(jobs):
    """When the last plugin's compile ended: every job that started before is the tool's."""
    return max((end for start, end, kind, module, files, directory in jobs if "/plugins/" in directory), default=0)


def modules_of(jobs, stage):
    """Per module: the emit-module time, the compile time, its files; per link, its time."""
    modules = defaultdict(lambda: {"emit": 0.0, "compile": 0.0, "files": 0, "jobs": 0, "link": 0.0})
    boundary = tool_stage_end(jobs)
    for start, end, kind, module, files, directory in jobs:
        if (start < boundary) != (stage == "tool"):
            continue
        seconds = (end - start) / 1e9
        entry = modules["link " + module if kind == "link" else module]
        if kind == "emit-module":
            entry["emit"] += seconds
        elif kind == "compile":
            entry["compile"] += seconds
            entry["files"] += max(files, 1)
            entry["jobs"] += 1
        elif kind == "link":
            entry["link"] += seconds
    return modules


def closure(module, dependencies):
    seen, stack = set(), [module]
    while stack:
        for dependency in dependencies.get(stack.pop(), []):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


def schedule(modules, dependencies, cores):
    """The stage's wall time on `cores` cores, by list scheduling of its jobs."""
    jobs, waits = {}, {}
    for name, entry in modules.items():
        before = [("emit", d) for d in dependencies.get(name, []) if d in modules and modules[d]["emit"] > 0]
        if entry["link"] > 0:
            jobs[("link", name)] = entry["link"]
            waits[("link", name)] = [key for d in closure(name, dependencies) if d in modules for key in jobs_of(d, modules, cores)]
            continue
        if entry["emit"] > 0:
            jobs[("emit", name)] = entry["emit"]
            waits[("emit", name)] = before
        batches = batch_count(entry, cores)
        # What each batch repeats (reading the module's declarations) costs about what the
        # module's emit-module job costs; the -j 1 build paid it once per batch it made.
        repeated = min(entry["emit"], entry["compile"] / max(entry["jobs"], 1))
        shared = max(entry["compile"] - entry["jobs"] * repeated, 0)
        for batch in range(batches):
            jobs[("compile", name, batch)] = shared / batches + repeated
            waits[("compile", name, batch)] = before
    # The longest chain from each job to the end, for the order in which ready jobs start.
    after = defaultdict(list)
    for job, before in waits.items():
        for earlier in before:
            after[earlier].append(job)
    level = {}

    def chain(job):
        if job not in level:
            level[job] = jobs[job] + max((chain(later) for later in after[job] if later in jobs), default=0)
        return level[job]

    for job in jobs:
        chain(job)
    remaining = {job: len([w for w in waits[job] if w in jobs]) for job in jobs}
    ready = [(-level[job], job) for job, count in remaining.items() if count == 0]
    heapq.heapify(ready)
    running, now, free = [], 0.0, cores
    while ready or running:
        while ready and free > 0:
            _, job = heapq.heappop(ready)
            heapq.heappush(running, (now + jobs[job], job))
            free -= 1
        now, job = heapq.heappop(running)
        free += 1
        for later in after[job]:
            if later in remaining:
                remaining[later] -= 1
                if remaining[later] == 0:
                    heapq.heappush(ready, (-level[later], later))
    # The critical path: from the job with the longest chain, the longest chain on.
    path, job = [], max(level, key=level.get, default=None)
    while job is not None:
        path.append((job, jobs[job]))
        job = max((later for later in after[job] if later in jobs), key=level.get, default=None)
    return now, path


def batch_count(entry, cores):
    """How many batches swift-driver makes of a module's files: one per core, of at most 25 files."""
    files = max(entry["files"], 1)
    return max(min(cores, files), -(-files // 25))


def jobs_of(module, modules, cores):
    entry = modules[module]
    keys = [("compile", module, batch) for batch in range(batch_count(entry, cores))]
    return keys + ([("emit", module)] if entry["emit"] > 0 else [])


def main():
    log, measured = sys.argv[1], float(sys.argv[2])
    dependencies = {}
    for argument in sys.argv[3:]:
        module, _, listed = argument.partition(":")
        dependencies[module] = [d for d in listed.split(",") if d]
    jobs = read_log(log)
    covered = sum(end - start for start, end, kind, *_ in jobs if kind in ("emit-module", "compile", "link")) / 1e9
    serial = (jobs[-1][1] - jobs[0][0]) / 1e9
    # What no compile or link job covers at -j 1, taken as it is: SwiftPM's own work, the
    # plugin's run, the driver's small jobs (dependency scans, wrapping modules for the
    # debugger), and the logging wrapper's few milliseconds a job.
    untracked = max(serial - covered, 0)
    stages = {stage: modules_of(jobs, stage) for stage in ("tool", "build")}
    print(f"jobs logged: {len(jobs)}, compiles and links {covered:.1f} s; outside them {untracked:.1f} s")
    for stage, modules in stages.items():
        for name, entry in sorted(modules.items(), key=lambda item: -(item[1]['emit'] + item[1]['compile'] + item[1]['link'])):
            total = entry["emit"] + entry["compile"] + entry["link"]
            if total >= 0.2:
                print(f"  {stage:5} {name:28} emit-module {entry['emit']:5.1f} s  compile {entry['compile']:5.1f} s ({entry['files']} files)  link {entry['link']:4.1f} s")
    for cores in (2, 4, 8, 12, 1000):
        walls = [schedule(modules, dependencies, cores) for modules in stages.values() if modules]
        total = sum(wall for wall, _ in walls) + untracked
        label = "unlimited" if cores == 1000 else f"{cores:>2} cores"
        extra = f" (measured on this machine: {measured:.1f} s)" if cores == 2 else ""
        print(f"  {label}: {total:5.1f} s{extra}")
    print("  the critical path (unlimited cores), stage by stage:")
    for stage, modules in stages.items():
        if modules:
            _, path = schedule(modules, dependencies, 1000)
            steps = " -> ".join(f"{job[1]} {job[0]} {seconds:.1f} s" for job, seconds in path)
            print(f"    {stage}: {steps}")


main()
