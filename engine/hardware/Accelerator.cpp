#include "hardware/Accelerator.h"

#include "core/CsvTable.h"
#include "core/Error.h"

#include <algorithm>
#include <cctype>

namespace astrolabe::hardware {

// The text of resources/hardware/accelerators.csv, compiled in by CMake (AcceleratorData.cpp.in).
extern const char* const kAcceleratorCsv;

namespace {

const std::vector<std::string> kColumns{"name",         "label",      "fp32_tflops", "tf32_tflops",
                                        "bf16_tflops",  "fp8_tflops", "hbm_gib",     "hbm_gbps",
                                        "scaleup_gbps", "nic_gbps",   "source"};

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::vector<Accelerator> parseAcceleratorTable(const std::string& text, const std::string& file) {
    std::vector<Accelerator> out;
    readCsvTable(text, file, kColumns, [&](const std::vector<std::string>& fields, int line) {
        auto fail = [&](const std::string& message) {
            throw Error(ErrorKind::Input, message, SourceLocation{file, line, 0, {}});
        };
        auto number = [&](size_t column, bool positive) {
            return csvNumber(fields[column], kColumns[column], file, line, positive);
        };
        Accelerator a;
        a.name = fields[0];
        a.label = fields[1];
        a.fp32Tflops = number(2, false);
        a.tf32Tflops = number(3, false);
        a.bf16Tflops = number(4, true);
        a.fp8Tflops = number(5, false);
        a.hbmGiB = number(6, true);
        a.hbmGBps = number(7, true);
        a.scaleUpGBps = number(8, false);
        a.nicGbps = number(9, false);
        a.source = fields[10];
        if (a.name.empty() || a.name != lower(a.name))
            fail("name: expected a lower-case key, found \"" + a.name + "\"");
        if (a.source.empty())
            fail("source: expected the datasheet of the row's figures, found nothing");
        for (const Accelerator& other : out)
            if (other.name == a.name)
                fail("name: \"" + a.name + "\" is listed twice");
        out.push_back(std::move(a));
    });
    return out;
}

const std::vector<Accelerator>& accelerators() {
    static const std::vector<Accelerator> all =
        parseAcceleratorTable(kAcceleratorCsv, "resources/hardware/accelerators.csv");
    return all;
}

std::vector<std::string> acceleratorNames() {
    std::vector<std::string> names;
    for (const Accelerator& a : accelerators())
        names.push_back(a.name);
    return names;
}

double peakTflops(const Accelerator& gpu, const std::string& precision, const std::string& key) {
    const std::string p = lower(precision);
    double value = -1;
    if (p == "fp32")
        value = gpu.fp32Tflops;
    else if (p == "tf32")
        value = gpu.tf32Tflops;
    else if (p == "bf16" || p == "fp16")
        value = gpu.bf16Tflops;
    else if (p == "fp8")
        value = gpu.fp8Tflops;
    if (value < 0)
        throw Error(ErrorKind::Validation,
                    "expected a precision (fp32, tf32, bf16, fp16, fp8), found \"" + precision +
                        "\"",
                    SourceLocation{{}, 0, 0, key});
    if (value <= 0)
        throw Error(ErrorKind::Validation,
                    "expected a precision " + gpu.label + " has, found \"" + precision + "\"",
                    SourceLocation{{}, 0, 0, key}, gpu.name + " has no " + p + " tensor cores");
    return value;
}

const Accelerator& findAccelerator(const std::string& name, const std::string& key) {
    const std::string wanted = lower(name);
    for (const Accelerator& a : accelerators())
        if (a.name == wanted)
            return a;
    const std::vector<std::string> names = acceleratorNames();
    std::string list;
    for (const std::string& n : names)
        list += (list.empty() ? "" : ", ") + n;
    const std::string close = closestMatch(wanted, names);
    throw Error(ErrorKind::Validation,
                "expected an accelerator (" + list + "), found \"" + name + "\"",
                SourceLocation{{}, 0, 0, key},
                close.empty() ? "resources/hardware/accelerators.csv lists them"
                              : "did you mean \"" + close + "\"?");
}

} // namespace astrolabe::hardware
