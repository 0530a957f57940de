// The bar experiment of thesis §4.4: prints the volume errors of LBS, DQS and
// the twist-corrected LBS beside Table 4.2, the candy-wrapper figure and the
// 0°→720° twist continuity sweep. Usage: bar_experiment_bench [ringsPerUnit sideSubdivisions [linearBlendHalfWidth]]
#include "core/eval/bar_experiment.h"

#include <chrono>
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
    std::printf("%-10s %22s %22s %22s\n", "step", "DualQuat", "LBS", "twist-corrected");
    for (const auto& s : t.steps)
        std::printf("%-10s %9.4f [%9.4f] %9.4f [%9.4f] %9.4f [%9.4f]\n", s.rotation.c_str(), s.dqs, s.thesisDqs,
                    s.lbs, s.thesisLbs, s.twist, s.thesisTwist);
    const rig::CandyWrapper c = rig::barCandyWrapper(180.0, o);
    std::printf("\nCandy wrapper, j2 twisted %.0f deg: smallest ring RMS radius / rest: LBS %.4f, DQS %.4f, "
                "twist-corrected %.4f\n",
                c.twistDegrees, c.lbs, c.dqs, c.twist);
    const rig::TwistContinuity k = rig::barTwistContinuity(720.0, 1.0, o);
    std::printf("\nTwist sweep of j2, 0..%.0f deg in %.0f deg steps: max step displacement / (sqrt 2 * 1 deg)\n",
                k.maxDegrees, k.stepDegrees);
    std::printf("  LBS                      %8.3f at %5.0f deg\n", k.lbs.maxRatio, k.lbs.atDegrees);
    std::printf("  DQS                      %8.3f at %5.0f deg\n", k.dqs.maxRatio, k.dqs.atDegrees);
    std::printf("  twist-corrected          %8.3f at %5.0f deg\n", k.twist.maxRatio, k.twist.atDegrees);
    std::printf("  twist-corrected, wrapped %8.3f at %5.0f deg\n", k.twistWrapped.maxRatio, k.twistWrapped.atDegrees);
    std::printf("\n(%.2f s)\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}
