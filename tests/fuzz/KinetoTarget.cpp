// PyTorch profiler (Kineto) traces: parsed, checked and imported into Chakra nodes as
// 'astrolabe-cli import pytorch' does.
#include "FuzzTarget.h"
#include "trace/kineto/KinetoImport.h"

ASTROLABE_FUZZ_TARGET(kineto) {
    using namespace astrolabe::kineto;
    (void)importKineto(parseKinetoTrace(input, "fuzz.json"));
}
