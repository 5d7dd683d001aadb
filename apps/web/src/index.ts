export { packageRoot, serveWebInterface, WEB_ROUTES, webAssetsDirectory } from './serve-web-interface';
