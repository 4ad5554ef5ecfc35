export interface SiteConfig {
  title: string;
  baseUrl: string;
  contentDir: string;
  outDir: string;
  assetsDir: string;
  timezone?: string;
}

export interface Post {
  title: string;
  slug: string;
  date: Date;
  tags: string[];
  draft: boolean;
  html: string;
  sourcePath: string;
}
