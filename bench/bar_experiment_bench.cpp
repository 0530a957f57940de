// The bar experiment of thesis §4.4: prints the volume errors of every deformer
// of the table beside Table 4.2, the candy-wrapper figure and the
// 0°→720° twist continuity sweep. Usage: bar_experiment_bench [ringsPerUnit sideSubdivisions [linearBlendHalfWidth]]
#include "core/eval/bar_experiment.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    rig::BarOptions o;
    if (argc >= 3) {
        o.ringsPerUnit = std::atoi(argv[1]);
        o.sideSubdivisions = std::atoi(argv[2]);
    }
    if (argc >= 4) {
        o.weights = rig::BarWeights::Linear;
        o.blendHalfWidth = std::atof(argv[3]);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const rig::BarVolumeTable t = rig::barVolumeExperiment(o);
    const rig::BarRig bar = rig::makeBar(o);
    std::printf("Bar 2 x 8 x 2: %d vertices, %d triangles, rest volume %.6f\n", bar.mesh.vertexCount(),
                bar.mesh.triangleCount(), t.restVolume);
    std::printf("Volume error e = (V0 - V) * 100 / V0, percent (thesis Table 4.2 in brackets)\n");
    std::printf("%-10s", "step");
    for (const rig::DeformerInfo& d : rig::deformers())
        std::printf(" %22s", d.shortTitle.c_str());
    std::printf("\n");
    for (const auto& s : t.steps) {
        std::printf("%-10s", s.rotation.c_str());
        for (const rig::DeformerInfo& d : rig::deformers()) {
            const auto th = s.thesis.find(d.id);
            std::printf(" %9.4f [%9.4f]", s.error.at(d.id), th != s.thesis.end() ? th->second : std::nan(""));
        }
        std::printf("\n");
    }
    const rig::CandyWrapper c = rig::barCandyWrapper(180.0, o);
    std::printf("\nCandy wrapper, j2 twisted %.0f deg: smallest ring RMS radius / rest:", c.twistDegrees);
    for (const auto& [id, r] : c.smallestRadius)
        std::printf(" %s %.4f", id.c_str(), r);
    const rig::TwistContinuity k = rig::barTwistContinuity(720.0, 1.0, o);
    std::printf("\n\nTwist sweep of j2, 0..%.0f deg in %.0f deg steps: max step displacement / (sqrt 2 * 1 deg)\n",
                k.maxDegrees, k.stepDegrees);
    for (const rig::DeformerInfo& d : rig::deformers())
        std::printf("  %-22s %8.3f at %5.0f deg; wrapped angles %8.3f at %5.0f deg\n", d.title.c_str(),
                    k.series.at(d.id).maxRatio, k.series.at(d.id).atDegrees, k.wrapped.at(d.id).maxRatio,
                    k.wrapped.at(d.id).atDegrees);
    std::printf("\n(%.2f s)\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}
