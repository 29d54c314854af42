import { beforeAll } from "vitest";
import { describeSandboxConformance } from "../../src/sandbox/conformance.js";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";
import { plantHostSecrets } from "./host-secrets-fixture.js";

const planted = plantHostSecrets();

beforeAll(async () => {
  await ensureTestBaseImage();
}, 600_000);

describeSandboxConformance("docker", () => new DockerProvider({ defaultImage: TEST_BASE_IMAGE }), {
  hostSecrets: planted.secrets,
  imageRoot: true,
});
