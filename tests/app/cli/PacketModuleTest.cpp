// The packet tier is a module (network/PacketTier.h): only a packet run maps ns-3, and when the
// module cannot be loaded the run says which paths it tried and which setting asked for it.
#include "CliRunner.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>

namespace fs = std::filesystem;

namespace {

std::string mappedFiles() {
    std::ifstream maps("/proc/self/maps");
    return {std::istreambuf_iterator<char>(maps), std::istreambuf_iterator<char>()};
}

fs::path ringProject(const fs::path& dir, const std::string& backend) {
    const fs::path project = dir / (backend + ".yaml");
    std::ofstream(project) << "name: ring 4\nplatform:\n  dimensions:\n"
                              "    - {type: Ring, size: 4, bandwidth: 50 GB/s, latency: 500 ns}\n"
                              "system: {chunks: 1, algorithms: {all-reduce: [ring]}, "
                              "local-memory-bandwidth: 50 GB/s}\nworkload:\n"
                              "  microbenchmark: {collective: all-reduce, size: 1 MiB}\n"
                              "run: {backend: "
                           << backend << "}\n";
    return project;
}

} // namespace

TEST(PacketModule, AnalyticalRunsNeverMapNs3AndAPacketRunOpensTheModule) {
    const fs::path dir = clitest::scratchDir("packet-module");
    for (const char* backend : {"congestion-unaware", "congestion-aware"}) {
        const clitest::Result r =
            clitest::cli({"run", "--no-store", ringProject(dir, backend).string()});
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(mappedFiles().find("libns3"), std::string::npos) << backend;
        EXPECT_EQ(mappedFiles().find("astrolabe-packet.so"), std::string::npos) << backend;
    }
    const clitest::Result r =
        clitest::cli({"run", "--no-store", ringProject(dir, "packet").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("), ns3\n"), std::string::npos) << r.out; // the backend run
    EXPECT_NE(mappedFiles().find("astrolabe-packet.so"), std::string::npos);
    EXPECT_NE(mappedFiles().find("libns3"), std::string::npos);
    fs::remove_all(dir);
}

TEST(PacketModule, AMissingModuleNamesThePathTriedAndTheSetting) {
    const fs::path dir = clitest::scratchDir("packet-module-missing");
    const std::string missing = (dir / "no-such-module.so").string();
    const clitest::ScopedEnv env("ASTROLABE_PACKET_MODULE", missing);
    const clitest::Result r =
        clitest::cli({"run", "--no-store", ringProject(dir, "packet").string()});
    EXPECT_NE(r.code, 0);
    for (const std::string& piece :
         {std::string("run.backend: packet"), std::string("astrolabe-packet.so"),
          missing + ": no such file", std::string("libns3-dev")})
        EXPECT_NE(r.err.find(piece), std::string::npos) << piece << "\n" << r.err;
    // The analytical models do not need it.
    const clitest::Result aware =
        clitest::cli({"run", "--no-store", ringProject(dir, "congestion-aware").string()});
    EXPECT_EQ(aware.code, 0) << aware.err;
    fs::remove_all(dir);
}

TEST(PacketModule, ALibraryThatIsNotTheModuleIsRefusedByName) {
    // The process's own C library is a shared object without the module's entry points.
    const std::string maps = mappedFiles();
    const size_t at = maps.find("/libc.so.6");
    ASSERT_NE(at, std::string::npos);
    const std::string libc =
        maps.substr(maps.rfind(' ', at) + 1, at + 10 - maps.rfind(' ', at) - 1);
    const fs::path dir = clitest::scratchDir("packet-module-wrong");
    const clitest::ScopedEnv env("ASTROLABE_PACKET_MODULE", libc);
    const clitest::Result r =
        clitest::cli({"run", "--no-store", ringProject(dir, "packet").string()});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find(libc + ": not a packet module"), std::string::npos) << r.err;
    fs::remove_all(dir);
}
