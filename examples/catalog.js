// A paged source of 10,000,000 product URLs, as serveSitemaps reads it: how many there are, and one
// page at a time. A real application reads the page from its database instead, for example
//   SELECT slug, updated_at FROM products ORDER BY id LIMIT $size OFFSET $index * $size
// (or a keyset query on id), yielding { loc, lastmod } for each row.
const PRODUCTS = 10_000_000;

export const products = {
  count: () => PRODUCTS,
  *page(index, size) {
    const end = Math.min(PRODUCTS, (index + 1) * size);
    for (let id = index * size; id < end; id++) {
      const day = String(1 + (id % 28)).padStart(2, '0');
      yield { loc: `https://shop.example.com/products/${id}`, lastmod: `2024-05-${day}` };
    }
  },
};
