#include "cli/SettingsCommand.h"

#include "cli/Commands.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"
#include "generate/GeneratorSettings.h"
#include "schema/Setting.h"

#include <ostream>

namespace astrolabe::cli {

ArgParser settingsParser() {
    return ArgParser("settings",
                     "Print the settings schema: every project setting, its unit, default, range "
                     "and ASTRA-sim key.",
                     {{"markdown", "", "print the Markdown tables of docs/project-format.md", ""},
                      {"update-doc", "FILE", "rewrite the generated tables in FILE", ""}});
}

int settingsCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    if (args.has("update-doc")) {
        const std::string path = args.value("update-doc");
        // Each page holds the tables it names; the generator's is not a project setting.
        const std::string text = generate::updateGeneratorDocTable(
            settings::updateDocTables(readInputFile(path, "the documentation page")));
        writeOutputFile(path, "the documentation page", [&](std::ostream& o) { o << text; });
        out << "updated " << path << "\n";
        return kExitOk;
    }
    for (const settings::Group* group : settings::allGroups()) {
        if (!args.has("markdown"))
            out << "## " << group->title << "\n\n";
        out << settings::markdownTable(*group) << "\n";
    }
    if (!args.has("markdown"))
        out << "## Training-iteration generator (generate-llm, model builder)\n\n"
            << generate::generatorMarkdownTable() << "\n";
    return kExitOk;
}

} // namespace astrolabe::cli
