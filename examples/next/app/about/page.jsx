export const metadata = {
  title: 'About',
  // Written as <meta property="article:modified_time">: the page's own date, its lastmod.
  openGraph: { type: 'article', modifiedTime: '2024-05-02T08:00:00Z' },
};

export default function About() {
  return <h1>About the shop</h1>;
}
