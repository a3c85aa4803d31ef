/** The SDK's version, sent in the User-Agent. Kept equal to package.json's by a test. */
export const SDK_VERSION = '0.2.0';
