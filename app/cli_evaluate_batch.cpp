// rigsmith evaluate over many files (issue 38): the runner. The summary is in
// cli_evaluate_summary.cpp.
#include "app/cli_evaluate_batch.h"

#include "core/common/error.h"
#include "core/import/guarded_import.h"
#include "core/skin/weight_methods.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace rig::app {

const std::vector<std::string> evaluateValueOptions = {
    "--report", "--resolution", "--up",      "--facing",      "--deform-joints", "--retarget-weights",
    "--fingers", "--weight-params", "--methods", "--rig-out", "--weights-out",   "--out",
    "--jobs",   "--timeout",    "--groups"};
const std::vector<std::string> evaluateFlagOptions = {"--resume", "--keep"};

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// The single-file options a batch passes on to each file's process.
const std::vector<std::string> forwardedOptions = {"--resolution", "--up", "--facing", "--deform-joints",
                                                   "--retarget-weights", "--fingers", "--weight-params"};

struct Input {
    std::string path;
    std::string id; ///< The report's name in --out: the file's stem (made unique).
};

std::string lowerExtension(const fs::path& p)
{
    std::string e = p.extension().string();
    if (!e.empty())
        e.erase(0, 1);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return e;
}

/// The extensions Assimp reads, as the importer process lists them (this
/// executable does not load Assimp).
std::set<std::string> readableExtensions()
{
    const std::string importer = findImporter(guardedImportDefaults());
    if (importer.empty())
        throw Error("rigsmith evaluate: rigsmith-import is missing beside rigsmith; it lists the formats a folder is read for");
    std::set<std::string> out;
    if (FILE* p = popen(("'" + importer + "' --list-extensions").c_str(), "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, p)) {
            std::string e(line);
            e.erase(e.find_last_not_of(" \r\n") + 1);
            if (!e.empty())
                out.insert(e);
        }
        pclose(p);
    }
    if (out.empty())
        throw Error("rigsmith evaluate: '" + importer + " --list-extensions' listed no format");
    return out;
}

/// The character files of a folder (not recursive), sorted: those whose
/// extension Assimp reads, less the JSON and text files beside them.
std::vector<std::string> filesOfFolder(const std::string& dir)
{
    const std::set<std::string> readable = readableExtensions();
    std::vector<std::string> out;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        const std::string ext = lowerExtension(e.path());
        if (e.is_regular_file() && readable.count(ext) && ext != "json" && ext != "txt")
            out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    if (out.empty())
        throw Error("rigsmith evaluate: the folder '" + dir + "' holds no character file (" +
                    std::to_string(readable.size()) + " formats read; .glb, .fbx, .obj...)");
    return out;
}

/// The files of an @LIST: one path a line (relative to the list's folder),
/// blank lines and lines starting with # ignored.
std::vector<std::string> filesOfList(const std::string& list)
{
    std::ifstream in(list);
    if (!in)
        throw Error("rigsmith evaluate: cannot read the list '" + list + "'");
    std::vector<std::string> out;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        line.erase(0, line.find_first_not_of(" \t\r"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (line.empty() || line[0] == '#')
            continue;
        if (line.rfind("default", 0) == 0) { // the bundled character
            out.push_back(line);
            continue;
        }
        fs::path p(line);
        if (p.is_relative())
            p = fs::path(list).parent_path() / p;
        if (!fs::is_regular_file(p))
            throw Error("rigsmith evaluate: " + list + " line " + std::to_string(n) + ": '" + line +
                        "' is not a file");
        out.push_back(p.lexically_normal().string());
    }
    if (out.empty())
        throw Error("rigsmith evaluate: the list '" + list + "' names no file");
    return out;
}

std::vector<Input> collectInputs(const Args& a)
{
    std::vector<std::string> files;
    for (const std::string& p : a.positional) {
        std::vector<std::string> more;
        if (!p.empty() && p[0] == '@')
            more = filesOfList(p.substr(1));
        else if (fs::is_directory(p))
            more = filesOfFolder(p);
        else if (fs::is_regular_file(p) || p.rfind("default", 0) == 0)
            more = {p};
        else
            throw Error("rigsmith evaluate: '" + p + "' is neither a file, a folder nor an @LIST");
        files.insert(files.end(), more.begin(), more.end());
    }
    if (files.empty())
        throw Error("rigsmith evaluate: no input (give FILE..., a folder or @LIST)");
    std::vector<Input> out;
    std::map<std::string, int> seen;
    for (const std::string& f : files) {
        std::string id = fs::path(f).stem().string();
        if (const int n = seen[id]++; n > 0)
            id += "_" + std::to_string(n + 1);
        out.push_back({f, id});
    }
    return out;
}

std::string selfExecutable()
{
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw Error("rigsmith evaluate: cannot find its own executable (/proc/self/exe) to run each file");
    return p.string();
}

/// Starts `argv` with stdout and stderr to `log`, stdin from /dev/null, in its
/// own process group (a time-out kills the importer it starts too).
pid_t spawn(const std::vector<std::string>& argv, const std::string& log)
{
    std::vector<char*> args;
    for (const std::string& s : argv)
        args.push_back(const_cast<char*>(s.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int in = open("/dev/null", O_RDONLY);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        if (in >= 0)
            dup2(in, 0);
        execv(args[0], args.data());
        _exit(127);
    }
    if (pid < 0)
        throw Error("rigsmith evaluate: cannot start a process for " + log + ": " + std::strerror(errno));
    return pid;
}

/// The last non-empty line of a log (the child's message).
std::string lastLine(const std::string& log)
{
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos)
            last = line;
    return last;
}

std::string duration(double s)
{
    const long t = std::lround(std::max(0.0, s));
    std::ostringstream o;
    if (t >= 60)
        o << t / 60 << "m" << (t % 60 < 10 ? "0" : "") << t % 60 << "s";
    else
        o << t << "s";
    return o.str();
}

/// A file's report when it was written whole (an object naming its input), else std::nullopt.
std::optional<json> finishedReport(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    try {
        json j = json::parse(in);
        if (j.is_object() && j.contains("input"))
            return j;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

struct Running {
    Input input;
    pid_t pid = -1;
    Clock::time_point start;
    bool timedOut = false;
};

struct BatchOptions {
    std::string out;
    int jobs = 1;
    double timeout = 300.0;
    bool keep = false;
    std::vector<std::string> childOptions; ///< Forwarded to every file's evaluate.
};

std::vector<std::string> childArgv(const std::string& exe, const Input& in, const BatchOptions& o)
{
    std::vector<std::string> argv = {exe, "evaluate", in.path, "--report", o.out + "/" + in.id + ".json"};
    argv.insert(argv.end(), o.childOptions.begin(), o.childOptions.end());
    if (o.keep) {
        argv.insert(argv.end(), {"--rig-out", o.out + "/" + in.id + ".rig.json"});
        argv.insert(argv.end(), {"--weights-out", o.out + "/" + in.id + ".weights"});
    }
    return argv;
}

/// Records a file whose process did not write its report: its exit, and the
/// last line it printed.
std::string recordFailure(const Running& r, int status, const BatchOptions& o)
{
    const std::string log = o.out + "/" + r.input.id + ".log";
    std::string kind = "error", message = lastLine(log);
    if (r.timedOut) {
        kind = "timeout";
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g s", o.timeout);
        message = std::string("ran past the per-file limit of ") + limit + " (--timeout)";
    } else if (WIFSIGNALED(status)) {
        kind = "crashed";
        message = std::string("the evaluate process died (") + strsignal(WTERMSIG(status)) + ")" +
                  (message.empty() ? "" : "; its last line: " + message);
    }
    writeJsonFile(o.out + "/" + r.input.id + ".json",
                  {{"command", "evaluate"},
                   {"input", r.input.path},
                   {"outcome", {{"kind", kind}, {"message", message}}},
                   {"exit_status", WIFEXITED(status) ? json(WEXITSTATUS(status)) : json(nullptr)}});
    return kind;
}

BatchOptions batchOptions(const Args& a)
{
    BatchOptions o;
    o.out = a.value("--out").value_or("");
    if (o.out.empty()) {
        char tmpl[] = "/tmp/rigsmith-evaluate-XXXXXX";
        if (!mkdtemp(tmpl))
            throw Error("rigsmith evaluate: cannot make a folder for the reports; give --out DIR");
        o.out = tmpl;
    }
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (!fs::is_directory(o.out))
        throw Error("rigsmith evaluate: cannot make the folder '" + o.out + "' for --out");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    try {
        o.jobs = a.value("--jobs") ? std::stoi(*a.value("--jobs")) : int(cores);
        o.timeout = a.value("--timeout") ? std::stod(*a.value("--timeout")) : 300.0;
    } catch (const std::exception&) {
        throw Error("rigsmith evaluate: --jobs takes a whole number and --timeout seconds");
    }
    if (o.jobs < 1 || o.jobs > 256 || !(o.timeout > 0.0))
        throw Error("rigsmith evaluate: --jobs must be in 1-256 and --timeout positive");
    o.keep = a.flag("--keep");
    for (const std::string& k : forwardedOptions)
        if (const auto v = a.value(k))
            o.childOptions.insert(o.childOptions.end(), {k, *v});
    o.childOptions.insert(o.childOptions.end(), {"--methods", a.value("--methods").value_or("default")});
    return o;
}

} // namespace

bool isEvaluateBatch(const Args& a)
{
    if (a.value("--out") || a.positional.size() > 1)
        return true;
    return a.positional.size() == 1 && (a.positional[0].rfind('@', 0) == 0 || fs::is_directory(a.positional[0]));
}

std::vector<std::string> parseEvaluateMethods(const Args& a, const std::string& fallback)
{
    const std::string spec = a.value("--methods").value_or(fallback);
    std::set<std::string> asked;
    std::stringstream in(spec);
    for (std::string id; std::getline(in, id, ',');)
        if (!id.empty())
            asked.insert(id == "default" ? WeightOptions{}.method : id);
    std::vector<std::string> out;
    for (const WeightMethod& m : weightMethods())
        if (asked.count("all") || asked.erase(m.id))
            out.push_back(m.id);
    asked.erase("all");
    if (!asked.empty())
        throw Error("rigsmith evaluate: --methods: weight method '" + *asked.begin() + "' not understood; use all, default or " +
                    weightMethodIds());
    return out;
}

int cmdEvaluateBatch(const Args& a)
{
    if (a.value("--report") || a.value("--rig-out") || a.value("--weights-out"))
        throw Error("rigsmith evaluate: --report, --rig-out and --weights-out are for one file; the batch form "
                    "writes OUT/ID.json (and with --keep OUT/ID.rig.json and OUT/ID.weights.METHOD.json)");
    parseEvaluateMethods(a, "default"); // an unknown method is refused before any work
    const std::vector<Input> inputs = collectInputs(a);
    const BatchOptions o = batchOptions(a);
    std::vector<std::string> groups;
    if (const auto g = a.value("--groups")) {
        std::stringstream in(*g);
        for (std::string path; std::getline(in, path, ',');)
            if (!fs::is_regular_file(path))
                throw Error("rigsmith evaluate: --groups: '" + path + "' is not a file of ids");
            else
                groups.push_back(path);
    }
    const std::string exe = selfExecutable();
    const auto t0 = Clock::now();
    std::vector<std::string> ids;
    std::vector<const Input*> todo;
    for (const Input& in : inputs) {
        ids.push_back(in.id);
        if (!(a.flag("--resume") && finishedReport(o.out + "/" + in.id + ".json")))
            todo.push_back(&in);
    }
    std::cerr << "rigsmith evaluate: " << inputs.size() << " files (" << inputs.size() - todo.size()
              << " already reported), " << o.jobs << " at a time, reports in " << o.out << '\n';
    std::vector<Running> running;
    size_t next = 0, done = 0;
    int failed = 0;
    while (next < todo.size() || !running.empty()) {
        while (running.size() < size_t(o.jobs) && next < todo.size()) {
            const Input& in = *todo[next++];
            running.push_back({in, spawn(childArgv(exe, in, o), o.out + "/" + in.id + ".log"), Clock::now()});
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0) {
            for (Running& r : running)
                if (!r.timedOut && std::chrono::duration<double>(Clock::now() - r.start).count() > o.timeout) {
                    r.timedOut = true;
                    kill(-r.pid, SIGKILL);
                    kill(r.pid, SIGKILL);
                }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            continue;
        }
        const auto it = std::find_if(running.begin(), running.end(), [&](const Running& r) { return r.pid == pid; });
        if (it == running.end())
            continue;
        kill(-pid, SIGKILL); // what the file's process left running (its importer)
        const bool exited = !it->timedOut && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        const std::optional<json> report =
            exited ? finishedReport(o.out + "/" + it->input.id + ".json") : std::nullopt;
        const std::string kind =
            report ? report->value(json::json_pointer("/outcome/kind"), std::string("error")) : recordFailure(*it, status, o);
        failed += kind == "failed" || kind == "error" || kind == "crashed" || kind == "timeout";
        ++done;
        const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
        const double took = std::chrono::duration<double>(Clock::now() - it->start).count();
        std::cerr << "[" << done << "/" << todo.size() << "] " << it->input.id << ": " << kind << " ("
                  << duration(took) << ") | " << failed << " failed so far | about "
                  << duration(elapsed / double(done) * double(todo.size() - done)) << " left\n";
        running.erase(it);
    }
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    const json run = {{"files", inputs.size()},
                      {"evaluated", todo.size()},
                      {"jobs", o.jobs},
                      {"timeout_seconds", o.timeout},
                      {"wall_seconds", wall},
                      {"options", o.childOptions}};
    const json summary = summarizeEvaluateReports(o.out, ids, groups, run);
    std::ifstream md(o.out + "/summary.md");
    std::cout << md.rdbuf();
    std::cerr << "rigsmith evaluate: " << todo.size() << " files in " << duration(wall) << "; summary in " << o.out
              << "/summary.md and summary.json\n";
    return 0;
}

} // namespace rig::app
