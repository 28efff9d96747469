# mcpfs in a container, like the official mcp/filesystem image: mount directories under /projects and pass
# them (or /projects) as arguments. A `ro` mount is read-only for mcpfs too.
#   docker build -t mcpfs .
#   docker run -i --rm --mount type=bind,src="$PWD",dst=/projects/work mcpfs /projects
# Build stage: the npm package exactly as `npm pack` makes it (prepack builds the bundle).
FROM node:22-alpine AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp && mv /tmp/mcpfs-*.tgz /tmp/mcpfs.tgz

# Release stage: Node, the bundle and ripgrep (its one runtime dependency); git for the workspace surface.
FROM node:22-alpine
RUN apk add --no-cache git
COPY --from=build /tmp/mcpfs.tgz /tmp/mcpfs.tgz
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/mcpfs.tgz && rm /tmp/mcpfs.tgz \
  && npm cache clean --force && mkdir -p /projects && chown node:node /projects
ENV NODE_ENV=production
USER node
WORKDIR /projects
ENTRYPOINT ["mcpfs"]
