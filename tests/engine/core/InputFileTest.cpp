// Every input path reads regular files only, up to a stated size: /dev/zero, a FIFO, a folder
// or an oversized file is refused at once with the path, what it is and the limit named, through
// InputFile itself and through each reader a project can point at such a path.
#include "core/InputFile.h"

#include "astra/AstraMemoryConfig.h"
#include "astra/AstraNetworkConfig.h"
#include "astra/AstraSystemConfig.h"
#include "core/Error.h"
#include "project/ProjectFile.h"
#include "schema/PerNodeCustomYaml.h"
#include "trace/chakra/ChakraRecords.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace astrolabe;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

class InputFiles : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::path(::testing::TempDir()) /
                ("astrolabe-input-files-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        m_fifo = (m_dir / "fifo").string();
        ASSERT_EQ(::mkfifo(m_fifo.c_str(), 0600), 0);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string write(const std::string& name, const std::string& text) const {
        const fs::path path = m_dir / name;
        std::ofstream(path, std::ios::binary) << text;
        return path.string();
    }
    std::string folder() const { return m_dir.string(); }

    fs::path m_dir;
    std::string m_fifo;
};

/// The message of the Error `read` throws, and that it came back within a second.
std::string refusal(const std::function<void()>& read, ErrorKind kind = ErrorKind::Input) {
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
        read();
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind);
        message = formatError(e.kind(), e.message(), e.where(), e.hint());
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
    return message;
}

} // namespace

TEST_F(InputFiles, ReadsARegularFileWhole) {
    const std::string text(300'000, 'x');
    EXPECT_EQ(readInputFile(write("a.txt", text), "the file"), text);
    EXPECT_EQ(readInputFile(write("empty.txt", ""), "the file"), "");
}

TEST_F(InputFiles, RefusesWhatIsNotARegularFileAtOnce) {
    EXPECT_THAT(refusal([] { readInputFile("/dev/zero", "the network configuration"); }),
                HasSubstr("/dev/zero: cannot read the network configuration: the path names a "
                          "character device"));
    EXPECT_THAT(refusal([&] { readInputFile(m_fifo, "the file"); }),
                HasSubstr("the path names a FIFO (named pipe)"));
    EXPECT_THAT(refusal([&] { readInputFile(folder(), "the trace file"); }),
                HasSubstr("the path names a folder"));
    EXPECT_THAT(refusal([&] { readInputFile(folder() + "/missing.yml", "the project file"); }),
                HasSubstr("missing.yml: cannot open the project file: no such file"));
}

TEST_F(InputFiles, RefusesAFileOverTheLimitNamingBoth) {
    const std::string path = write("big.json", std::string(3 * 1024, ' '));
    EXPECT_THAT(refusal([&] { readInputFile(path, "the system configuration", 2048); }),
                HasSubstr("it is 3 KiB, larger than the limit of 2 KiB"));
    EXPECT_EQ(readInputFile(path, "the system configuration", 3 * 1024).size(), 3u * 1024);
}

// Each reader a project or the command line can point at a path goes through the same check.
TEST_F(InputFiles, EveryReaderRefusesDevicesFifosAndFolders) {
    for (const std::string& path : {std::string("/dev/zero"), m_fifo, folder()}) {
        SCOPED_TRACE(path);
        EXPECT_THAT(refusal([&] { loadAstraNetworkYaml(path); }), HasSubstr("the path names"));
        EXPECT_THAT(refusal([&] { loadAstraSystemJson(path); }), HasSubstr("the path names"));
        EXPECT_THAT(refusal([&] { loadAstraRemoteMemoryJson(path); }), HasSubstr("the path names"));
        EXPECT_THAT(refusal([&] { loadCommGroupsJson(path); }), HasSubstr("the path names"));
        EXPECT_THAT(refusal([&] { loadPerNodeCustomYaml(path); }), HasSubstr("the path names"));
        EXPECT_THAT(refusal([&] { loadProject(path); }), HasSubstr("the path names"));
        EXPECT_THAT(refusal([&] { chakra::loadTraceBytes(path, nullptr); }),
                    HasSubstr("the path names"));
    }
}

TEST_F(InputFiles, AProjectNamingDevZeroAsItsNetworkIsRefusedWithBothFilesNamed) {
    const std::string project = write("project.yaml", "name: hostile\n"
                                                      "platform: {astra-network: /dev/zero}\n"
                                                      "workload:\n"
                                                      "  microbenchmark: {collective: all-reduce, "
                                                      "size: 1 MiB}\n");
    // The project's errors are gathered into one list (kind Validation) naming each file.
    const std::string message = refusal([&] { loadProject(project); }, ErrorKind::Validation);
    EXPECT_THAT(message, HasSubstr("/dev/zero"));
    EXPECT_THAT(message, HasSubstr("character device"));
}
