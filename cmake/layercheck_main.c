/* main of the layer check executables (cmake/parts.cmake): they link one part whole with
   only the parts it may use, and never run. */
int main(void)
{
    return 0;
}
