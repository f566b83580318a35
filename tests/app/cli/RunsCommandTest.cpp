#include "TestPaths.h"
#include "cli/CliRunner.h"
#include "cli/Commands.h"
#include "store/ProjectDatabase.h"
#include "support/SyntheticRun.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

using namespace astrolabe;
using astrolabe::cli::runCli;

namespace {

using clitest::Result;
Result runCommand(const std::vector<std::string>& args) {
    return clitest::cli(args);
}

/// A database with two runs: "base" (4 steps) and "longer" (8 steps) of the synthetic workload.
class RunsCli : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = std::filesystem::temp_directory_path() /
                ("astrolabe_cli_runs_" + std::to_string(::getpid()));
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
        m_db = (m_dir / "astrolabe.db").string();
        ProjectDatabase db(m_db);
        RunResult base = test::makeSyntheticRun();
        base.name = "base";
        m_first = db.saveRun(base, {});
        test::SyntheticRunShape shape;
        shape.steps = 8;
        RunResult longer = test::makeSyntheticRun(shape);
        longer.name = "longer";
        m_second = db.saveRun(longer, {});
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string id(int64_t v) const { return std::to_string(v); }

    std::filesystem::path m_dir;
    std::string m_db;
    int64_t m_first = 0, m_second = 0;
};

} // namespace

TEST_F(RunsCli, ListShowsEveryRunNewestFirst) {
    const Result r = runCommand({"runs", "list", "--db", m_db});
    ASSERT_EQ(r.code, 0) << r.err;
    const size_t longer = r.out.find("longer"), base = r.out.find("base");
    ASSERT_NE(longer, std::string::npos);
    ASSERT_NE(base, std::string::npos);
    EXPECT_LT(longer, base);
    EXPECT_NE(r.out.find("5957"), std::string::npos); // base: 7 + 3 * 1450 + 1600 ns
}

TEST_F(RunsCli, ProjectOptionFindsTheDatabaseBesideTheProject) {
    const Result r = runCommand({"runs", "list", "--project", (m_dir / "project.yaml").string()});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("longer"), std::string::npos);
}

TEST_F(RunsCli, ShowRenameTagNotesDelete) {
    EXPECT_EQ(runCommand({"runs", "rename", id(m_first), "--name", "baseline", "--db", m_db}).code,
              0);
    EXPECT_EQ(runCommand({"runs", "tag", id(m_first), "--tags", "a,b", "--db", m_db}).code, 0);
    EXPECT_EQ(
        runCommand({"runs", "notes", id(m_first), "--notes", "reference run", "--db", m_db}).code,
        0);
    const Result show = runCommand({"runs", "show", id(m_first), "--db", m_db});
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("baseline"), std::string::npos);
    EXPECT_NE(show.out.find("a, b"), std::string::npos);
    EXPECT_NE(show.out.find("reference run"), std::string::npos);
    EXPECT_NE(show.out.find("ALL_REDUCE 1048576 B on 8 NPUs"), std::string::npos);
    // Text that would break the list or reach the terminal raw is refused; tags are trimmed
    // and given once, and a list without a tag does not clear them silently.
    for (const auto& [action, flag, value] :
         {std::tuple{"rename", "--name", "a\nb"}, std::tuple{"rename", "--name", "  "},
          std::tuple{"tag", "--tags", ",,,"}, std::tuple{"notes", "--notes", "red \x1b[31m"}}) {
        const Result bad = runCommand({"runs", action, id(m_first), flag, value, "--db", m_db});
        EXPECT_EQ(bad.code, 2) << action << " " << value;
    }
    EXPECT_EQ(runCommand({"runs", "tag", id(m_first), "--tags", "a,, b ,a", "--db", m_db}).code, 0);
    EXPECT_EQ(
        runCommand({"runs", "notes", id(m_first), "--notes", "two\nlines", "--db", m_db}).code, 0);
    const Result again = runCommand({"runs", "show", id(m_first), "--db", m_db});
    EXPECT_NE(again.out.find("a, b\n"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("baseline"), std::string::npos) << "the bad names were refused";
    const Result del = runCommand({"runs", "delete", id(m_first), "--db", m_db});
    EXPECT_EQ(del.code, 0);
    const Result gone = runCommand({"runs", "show", id(m_first), "--db", m_db});
    EXPECT_EQ(gone.code, 1);
    EXPECT_NE(gone.err.find("no run " + id(m_first)), std::string::npos) << gone.err;
}

TEST_F(RunsCli, ExportJsonCsvAstraPerfetto) {
    const Result json =
        runCommand({"runs", "export", id(m_first), "--format", "json", "--db", m_db});
    ASSERT_EQ(json.code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["activities"].size(), test::makeSyntheticRun().activities.size());
    EXPECT_EQ(j["run"]["id"], m_first);

    const Result csv = runCommand(
        {"runs", "export", id(m_first), "--format", "csv", "--table", "links", "--db", m_db});
    ASSERT_EQ(csv.code, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 1 + 16); // header + 2 x 8 links

    const Result astra =
        runCommand({"runs", "export", id(m_first), "--format", "astra", "--db", m_db});
    ASSERT_EQ(astra.code, 0);
    EXPECT_NE(astra.out.find("] [workload] [info] sys[0] finished, 5950 cycles"), std::string::npos)
        << astra.out;

    const std::string trace = (m_dir / "trace.json").string();
    const Result perfetto = runCommand(
        {"runs", "export", id(m_first), "--format", "perfetto", "--out", trace, "--db", m_db});
    ASSERT_EQ(perfetto.code, 0) << perfetto.err;
    std::ifstream in(trace);
    const auto t = nlohmann::json::parse(in);
    EXPECT_GT(t["traceEvents"].size(), 100u);

    const Result bad = runCommand({"runs", "export", id(m_first), "--format", "xml", "--db", m_db});
    EXPECT_EQ(bad.code, 2);
}

// A write that does not reach the disk is an error (exit 1) naming the file, in every format;
// before, /dev/full exited 0 with nothing said.
TEST_F(RunsCli, FailedWritesAreErrorsNamingTheFile) {
    for (const char* format : {"json", "csv", "astra", "perfetto"}) {
        SCOPED_TRACE(format);
        const Result r = runCommand({"runs", "export", id(m_first), "--format", format, "--out",
                                     "/dev/full", "--db", m_db});
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_NE(r.err.find("/dev/full: cannot write"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    }
    const std::string project = (m_dir / "project.yaml").string();
    std::filesystem::copy_file(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml", project);
    const Result run = runCommand({"run", project, "--no-store", "--json=/dev/full"});
    EXPECT_EQ(run.code, 1) << run.err;
    EXPECT_NE(run.err.find("/dev/full: cannot write the JSON result"), std::string::npos)
        << run.err;
    const std::string missing = (m_dir / "no-such-folder" / "out.json").string();
    const Result folder =
        runCommand({"runs", "export", id(m_first), "--out", missing, "--db", m_db});
    EXPECT_EQ(folder.code, 1);
    EXPECT_NE(folder.err.find("cannot write the export: its folder"), std::string::npos)
        << folder.err;
}

// An output that names a file the command reads is refused before anything is written: an export
// over its own database (however the path is spelled), a run's JSON over its project or its
// database. Each input is left byte for byte.
TEST_F(RunsCli, AnOutputOverAnInputIsRefusedAndTheInputKept) {
    const auto slurp = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string db = slurp(m_db);
    const std::string sameDb = (m_dir / "." / "astrolabe.db").string();
    for (const char* format : {"json", "csv", "astra", "perfetto"}) {
        SCOPED_TRACE(format);
        const Result r = runCommand(
            {"runs", "export", id(m_first), "--format", format, "--out", sameDb, "--db", m_db});
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_NE(r.err.find("cannot write the export there: it is the project database"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(slurp(m_db), db);
    }
    const std::string project = (m_dir / "project.yaml").string();
    std::filesystem::copy_file(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml", project);
    const std::string text = slurp(project);
    Result r = runCommand({"run", project, "--db", m_db, "--json", m_db});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("cannot write the JSON result there: it is the project database"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "") << "refused before the run";
    EXPECT_EQ(slurp(m_db), db);
    r = runCommand({"run", project, "--no-store", "--json", project});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("it is the project ("), std::string::npos) << r.err;
    EXPECT_EQ(slurp(project), text);
    // runs export --project: the project is an input too.
    r = runCommand(
        {"runs", "export", id(m_first), "--project", project, "--db", m_db, "--out", project});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("cannot write the export there: it is the project ("), std::string::npos)
        << r.err;
    EXPECT_EQ(slurp(project), text);
    // A database that cannot be opened (here a folder) is found before the run, and no JSON
    // result is left behind.
    const std::filesystem::path folderDb = m_dir / "folder.db";
    std::filesystem::create_directories(folderDb);
    const std::string jsonAside = (m_dir / "aside.json").string();
    r = runCommand({"run", project, "--db", folderDb.string(), "--json", jsonAside});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("cannot open project database"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("finished"), std::string::npos) << "refused before the run:\n" << r.out;
    EXPECT_FALSE(std::filesystem::exists(jsonAside));
    // Without storing, the database is not an input: a JSON file may take its name.
    const std::string json = (m_dir / "result.json").string();
    r = runCommand({"run", project, "--no-store", "--db", json, "--json", json});
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(RunsCli, PerfettoBudgetMustBeAPositiveSize) {
    for (const char* budget : {"nan", "-1", "0", "0.001", "abc", "1e400"}) {
        SCOPED_TRACE(budget);
        const Result r = runCommand({"runs", "export", id(m_first), "--format", "perfetto",
                                     "--budget-mb", budget, "--db", m_db});
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find("--budget-mb"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    }
}

// An option of another format is refused, not ignored.
TEST_F(RunsCli, OptionsOfAnotherFormatAreRefused) {
    Result r = runCommand(
        {"runs", "export", id(m_first), "--format", "json", "--table", "links", "--db", m_db});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--table applies to --format csv, not json"), std::string::npos) << r.err;
    r = runCommand({"runs", "export", id(m_first), "--budget-mb", "50", "--db", m_db});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--budget-mb applies to --format perfetto"), std::string::npos) << r.err;
}

TEST_F(RunsCli, CompareShowsDifferencesAndRatiosAgainstTheFirst) {
    const Result r = runCommand({"compare", id(m_first), id(m_second), "--db", m_db});
    ASSERT_EQ(r.code, 0) << r.err;
    // End time: 5957 ns vs 7 + 7 * 1450 + 1600 = 11757 ns, +5800 ns, ratio 1.974.
    std::istringstream lines(r.out);
    std::string line, endLine, computeLine;
    while (std::getline(lines, line)) {
        if (line.rfind("end time", 0) == 0)
            endLine = line;
        if (line.rfind("compute (mean)", 0) == 0)
            computeLine = line;
    }
    EXPECT_NE(endLine.find("5957"), std::string::npos) << r.out;
    EXPECT_NE(endLine.find("11757 (+5800, x1.974)"), std::string::npos) << r.out;
    EXPECT_NE(computeLine.find("8000 (+4000, x2.000)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("collective 8 ALL_REDUCE 1048576 B"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("dimension 1 bytes"), std::string::npos);
}

TEST_F(RunsCli, UsageErrors) {
    const Result action = runCommand({"runs", "lst", "--db", m_db});
    EXPECT_EQ(action.code, 2);
    EXPECT_NE(action.err.find("did you mean \"list\""), std::string::npos) << action.err;
    EXPECT_EQ(runCommand({"runs", "show", "--db", m_db}).code, 2);
    EXPECT_EQ(runCommand({"runs", "show", "abc", "--db", m_db}).code, 2);
    const Result missing = runCommand({"runs", "list", "--db", (m_dir / "nope.db").string()});
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("no project database"), std::string::npos);
    EXPECT_EQ(runCommand({"compare", id(m_first), "--db", m_db}).code, 2); // needs two runs
    EXPECT_EQ(runCommand({"compare", id(m_first), "99", "--db", m_db}).code, 1);
    EXPECT_EQ(runCommand({"runs", "--help"}).code, 0);
    EXPECT_EQ(runCommand({"compare", "--help"}).code, 0);
    EXPECT_NE(runCommand({"run", "--help"}).out.find("--db"), std::string::npos);
}

TEST_F(RunsCli, ManyCollectivesAreSummedPerTypeAndSize) {
    test::SyntheticRunShape shape;
    shape.steps = 20; // more collectives than the table shows one by one
    int64_t many = 0;
    {
        ProjectDatabase db(m_db);
        many = db.saveRun(test::makeSyntheticRun(shape), {});
    }
    const Result r = runCommand({"compare", id(m_first), id(many), "--db", m_db});
    ASSERT_EQ(r.code, 0) << r.err;
    // 4 all-reduces of 600 ns against 20 of them: 2400 vs 12000 ns.
    EXPECT_NE(r.out.find("all ALL_REDUCE 1048576 B (sum of means) [ns]"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("12000 (+9600, x5.000)"), std::string::npos) << r.out;
}

// Commands that read runs never make a database: an empty or foreign file given as --db is
// refused and left as it was.
TEST_F(RunsCli, AFileThatIsNotADatabaseIsRefusedAndLeftAsItWas) {
    const std::filesystem::path empty = m_dir / "notes.txt", text = m_dir / "todo.txt";
    std::ofstream{empty};
    std::ofstream(text) << "buy milk\n";
    for (const std::filesystem::path& file : {empty, text}) {
        const auto size = std::filesystem::file_size(file);
        const Result list = runCommand({"runs", "list", "--db", file.string()});
        EXPECT_EQ(list.code, 2) << list.out;
        EXPECT_NE(list.err.find("is not a project database"), std::string::npos) << list.err;
        const Result compare = runCommand({"compare", "1", "2", "--db", file.string()});
        EXPECT_EQ(compare.code, 2);
        EXPECT_NE(compare.err.find("compare: " + file.string() + " is not a project database"),
                  std::string::npos)
            << compare.err;
        EXPECT_EQ(std::filesystem::file_size(file), size) << file;
    }
    EXPECT_EQ(runCommand({"runs", "list", "--db", m_db}).code, 0) << "a real one still reads";
}

namespace {

// Runs a command as a user who may not write the test's files: as user nobody in a child
// process when the tests run as root (whom permissions do not bind), else in this process.
// Code 77: the scratch folder is out of that user's reach (a private temp folder).
Result asAnotherUser(const std::vector<std::string>& args, const std::string& mustRead) {
    if (::geteuid() != 0)
        return runCommand(args);
    int fds[2];
    if (::pipe(fds) != 0)
        return {99, {}, "pipe failed"};
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(fds[0]);
        Result r{77, {}, {}};
        if (::setgid(65534) == 0 && ::setuid(65534) == 0 && ::access(mustRead.c_str(), R_OK) == 0)
            r = runCommand(args);
        const std::string message = std::to_string(r.code) + '\n' + r.out + '\x1f' + r.err;
        for (size_t done = 0; done < message.size();) {
            const ssize_t n = ::write(fds[1], message.data() + done, message.size() - done);
            if (n <= 0)
                break;
            done += static_cast<size_t>(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string message;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        message.append(buffer, static_cast<size_t>(n));
    ::close(fds[0]);
    ::waitpid(child, nullptr, 0);
    const size_t line = message.find('\n'), split = message.find('\x1f');
    if (line == std::string::npos || split == std::string::npos)
        return {99, {}, "the child said nothing"};
    return {std::stoi(message.substr(0, line)), message.substr(line + 1, split - line - 1),
            message.substr(split + 1)};
}

} // namespace

// A shared project's database, in a folder or a file this user may not write, is read as it is:
// list, show, export and compare work and leave no log files behind; a change is refused when
// the database is opened, saying why, and the file is left as it was.
TEST_F(RunsCli, ADatabaseThisUserMayNotWriteIsReadAndLeftAsItWas) {
    namespace fs = std::filesystem;
    const auto readAll = [&] {
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"runs", "list", "--db", m_db},
              {"runs", "show", id(m_second), "--db", m_db},
              {"compare", id(m_first), id(m_second), "--db", m_db}}) {
            const Result r = asAnotherUser(args, m_db);
            if (r.code == 77)
                return false;
            EXPECT_EQ(r.code, 0) << args[0] << " " << args[1] << ": " << r.err;
            EXPECT_NE(r.out.find("longer"), std::string::npos) << r.out;
        }
        EXPECT_FALSE(fs::exists(m_db + "-wal"));
        EXPECT_FALSE(fs::exists(m_db + "-shm"));
        const Result rename =
            asAnotherUser({"runs", "rename", id(m_first), "--name", "x", "--db", m_db}, m_db);
        EXPECT_EQ(rename.code, 1);
        EXPECT_NE(rename.err.find(m_db +
                                  ": cannot write this project database: the file or its folder is "
                                  "read-only"),
                  std::string::npos)
            << rename.err;
        return true;
    };
    const auto before = fs::file_size(m_db);
    fs::permissions(m_dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(m_dir, fs::perms::owner_write, fs::perm_options::remove); // read-only folder
    const bool reachable = readAll();
    fs::permissions(m_dir, fs::perms::all); // a writable folder, a read-only file
    fs::permissions(m_db, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    if (reachable)
        readAll();
    fs::permissions(m_db, fs::perms::owner_read | fs::perms::owner_write);
    fs::permissions(m_dir, fs::perms::owner_all);
    EXPECT_EQ(fs::file_size(m_db), before);
    if (!reachable)
        GTEST_SKIP() << "user nobody cannot reach " << m_db;
}

// A database in a folder that does not exist is named as such, before the run.
TEST_F(RunsCli, ADatabaseInAFolderThatDoesNotExistIsNamedBeforeTheRun) {
    const std::string db = (m_dir / "no" / "such" / "astrolabe.db").string();
    const Result r =
        runCommand({"run", ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml", "--db", db});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find(db + ": cannot create this project database: its folder " +
                         (m_dir / "no" / "such").string() + " does not exist"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("finished at"), std::string::npos) << "refused before the run";
}
