#include "generate/DataParallelProgram.h"

#include <cmath>

namespace astrolabe::generate {

namespace {

struct ResNetStage {
    const char* name;
    double params;
    double macs;        ///< per image at 224 x 224
    double activations; ///< elements kept per image for the backward pass (estimate)
};

// torchvision ResNet-50 (weights only, batch-norm affine parameters left out).
constexpr ResNetStage kResNet50[] = {
    {"stem", 9408, 118.0e6, 2.4e6},       {"layer1", 215808, 680.0e6, 9.6e6},
    {"layer2", 1219584, 1030.0e6, 7.2e6}, {"layer3", 7098368, 1470.0e6, 5.4e6},
    {"layer4", 14964736, 811.0e6, 2.1e6}, {"fc", 2049000, 2.05e6, 3.0e3},
};

LayerProgram denseLayer(std::string name, double flops, double bytes, double params,
                        double activationBytes) {
    LayerProgram layer;
    layer.forward.push_back(Step::compute(name, flops, bytes));
    layer.backward.push_back(Step::compute(name + ".bwd", 2 * flops, 2 * bytes));
    layer.params.push_back({static_cast<uint64_t>(std::llround(params)), GroupKind::Dp});
    layer.activationBytes = activationBytes;
    layer.name = std::move(name);
    return layer;
}

/// Fully connected stack: FLOPs, parameters and activation elements per sample.
struct MlpCost {
    double flops = 0, params = 0, activations = 0;
};
MlpCost mlpCost(int input, const std::vector<int>& widths) {
    MlpCost c;
    int in = input;
    for (int out : widths) {
        c.flops += 2.0 * in * out;
        c.params += double(in) * out + out;
        c.activations += in + out;
        in = out;
    }
    return c;
}

int interactionWidth(const ModelSpec& m) {
    const int vectors = m.embeddingTables + 1;
    return m.embeddingDim + vectors * (vectors - 1) / 2;
}

} // namespace

ModelProgram buildResNetProgram(const GeneratorSpec& spec) {
    const double mb = spec.training.microBatch, e = spec.training.bytesPerElement;
    const double scale = std::pow(spec.model.imageSize / 224.0, 2);
    ModelProgram program;
    std::vector<int> members;
    for (const ResNetStage& s : kResNet50) {
        const bool conv = std::string(s.name) != "fc";
        const double flops = 2 * s.macs * mb * (conv ? scale : 1);
        const double acts = s.activations * mb * (conv ? scale : 1);
        members.push_back(int(program.layers.size()));
        program.layers.push_back(
            denseLayer(s.name, flops, s.params * e + 3 * acts * e, s.params, acts * e));
    }
    program.chunks.push_back(members);
    return program;
}

ModelProgram buildDlrmProgram(const GeneratorSpec& spec) {
    const ModelSpec& m = spec.model;
    const double mb = spec.training.microBatch, e = spec.training.bytesPerElement;
    const int n = static_cast<int>(spec.parallel.npus()); // validated: at most kMaxNpus
    ModelProgram program;

    // Table-wise sharding: every rank looks up its tables for the n micro-batches of the step.
    LayerProgram embed;
    embed.name = "embed";
    embed.recomputable = false;
    const double vectors = mb * m.embeddingTables * m.embeddingDim; // elements per rank buffer
    const uint64_t a2a = static_cast<uint64_t>(std::llround(vectors * e));
    embed.forward.push_back(Step::compute("lookup", 0, 2 * vectors * e));
    embed.forward.push_back(Step::coll("emb.a2a", CollectiveType::AllToAll, a2a, GroupKind::World));
    embed.backward.push_back(
        Step::coll("emb.a2a.bwd", CollectiveType::AllToAll, a2a, GroupKind::World));
    embed.backward.push_back(Step::compute("emb.update", 0, 3 * vectors * e));
    const double tableParams = double(m.embeddingTables) * double(m.embeddingRows) * m.embeddingDim;
    embed.params.push_back({static_cast<uint64_t>(std::llround(tableParams / n)), GroupKind::None});
    embed.activationBytes = vectors * e;

    const MlpCost bottom = mlpCost(m.denseFeatures, m.bottomMlp);
    const MlpCost top = mlpCost(interactionWidth(m), m.topMlp);
    const double pairs = (m.embeddingTables + 1.0) * m.embeddingTables / 2;
    const double interactionFlops = 2 * mb * pairs * m.embeddingDim;
    const double interactionBytes =
        mb * ((m.embeddingTables + 1.0) * m.embeddingDim + interactionWidth(m)) * e;

    program.layers.push_back(std::move(embed));
    program.layers.push_back(denseLayer("bottom", mb * bottom.flops,
                                        bottom.params * e + mb * bottom.activations * e,
                                        bottom.params, mb * bottom.activations * e));
    LayerProgram interaction =
        denseLayer("interact", interactionFlops, interactionBytes, 0, interactionBytes);
    interaction.params.clear();
    program.layers.push_back(std::move(interaction));
    program.layers.push_back(denseLayer("top", mb * top.flops,
                                        top.params * e + mb * top.activations * e, top.params,
                                        mb * top.activations * e));
    program.chunks.push_back({0, 1, 2, 3});
    return program;
}

double dataParallelParameters(const GeneratorSpec& spec) {
    const ModelSpec& m = spec.model;
    if (spec.model.kind == ModelKind::ResNet) {
        double total = 0;
        for (const ResNetStage& s : kResNet50)
            total += s.params;
        return total;
    }
    return double(m.embeddingTables) * double(m.embeddingRows) * m.embeddingDim +
           mlpCost(m.denseFeatures, m.bottomMlp).params +
           mlpCost(interactionWidth(m), m.topMlp).params;
}

} // namespace astrolabe::generate
