#include "cli/Commands.h"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    try {
        const int code = astrolabe::cli::runCli(std::vector<std::string>(argv + 1, argv + argc),
                                                std::cout, std::cerr);
        // Output that did not reach standard output (a full disk, /dev/full) is a failure.
        std::cout.flush();
        if (!std::cout) {
            std::cerr << "astrolabe-cli: error: cannot write to standard output\n";
            return 1;
        }
        return code;
    } catch (const std::exception& e) {
        std::cerr << "astrolabe-cli: internal error: " << e.what() << "\n";
        return 1;
    }
}
