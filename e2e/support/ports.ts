/** Ports used only by the end-to-end suite, away from the 3000 a developer's own Arbor uses. */
export const APP_PORT = 3100;
export const FAKE_MODEL_PORT = 4010;
/** Extra servers started by specs that need their own (restart, engine down, model down). */
export const SPARE_APP_PORT = 3101;
